export { default } from "@/features/console/console-layout";
