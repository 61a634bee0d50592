export { default } from "@/features/auth/sign-in-page";
