export { default } from "@/features/console/apis-page";
