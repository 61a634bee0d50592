export { default } from "@/features/console/runs-page";
