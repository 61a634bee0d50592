export { default, generateMetadata } from "@/features/console/ai-access-page";
