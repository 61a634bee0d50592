export { default, generateMetadata } from "@/features/console/consumers-page";
