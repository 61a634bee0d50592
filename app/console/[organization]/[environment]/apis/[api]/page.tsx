export { default, generateMetadata } from "@/features/console/api-settings-page";
