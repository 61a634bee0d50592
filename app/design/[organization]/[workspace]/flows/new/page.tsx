export { default, generateMetadata } from "@/features/design/new-flow-page";
