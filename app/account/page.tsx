export { default, metadata } from "@/features/account/account-page";
