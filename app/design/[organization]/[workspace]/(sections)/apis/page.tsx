export { default, generateMetadata } from "@/features/design/apis-page";
