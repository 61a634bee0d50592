export { default } from "@/features/console/usage-page";
