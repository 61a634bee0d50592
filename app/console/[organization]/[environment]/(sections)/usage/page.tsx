export { default, generateMetadata } from "@/features/console/usage-page";
