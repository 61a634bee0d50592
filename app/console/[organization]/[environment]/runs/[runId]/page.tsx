export { default } from "@/features/console/run-detail-page";
