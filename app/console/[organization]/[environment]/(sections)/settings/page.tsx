export { default } from "@/features/console/settings-page";
