export { default, generateMetadata } from "@/features/design/api-page";
