export { default, metadata } from "@/features/auth/sign-in-page";
