export { default, generateMetadata } from "@/features/design/flow-page";
