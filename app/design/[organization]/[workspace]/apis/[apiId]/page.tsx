export { default } from "@/features/design/api-page";
