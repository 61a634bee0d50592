export { default } from "@/features/account/account-page";
