export { default, metadata } from "@/features/oauth/consent-page";
