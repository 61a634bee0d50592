export { default } from "@/features/console/api-settings-page";
