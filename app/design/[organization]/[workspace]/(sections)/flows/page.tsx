export { default, generateMetadata } from "@/features/design/flows-page";
