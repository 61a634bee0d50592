export { default, generateMetadata } from "@/features/console/keys-page";
