export { default, generateMetadata } from "@/features/console/webhooks-page";
