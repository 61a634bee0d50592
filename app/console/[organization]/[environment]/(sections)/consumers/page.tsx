export { default } from "@/features/console/consumers-page";
