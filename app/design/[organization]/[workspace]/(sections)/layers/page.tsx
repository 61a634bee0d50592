export { default, generateMetadata } from "@/features/design/layers-page";
