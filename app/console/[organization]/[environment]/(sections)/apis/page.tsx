export { default, generateMetadata } from "@/features/console/apis-page";
