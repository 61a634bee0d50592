export { default, generateMetadata } from "@/features/design/layer-page";
