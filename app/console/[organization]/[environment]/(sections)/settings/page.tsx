export { default, generateMetadata } from "@/features/console/settings-page";
