export { default } from "@/features/console/webhooks-page";
