export { default } from "@/features/design/apis-page";
