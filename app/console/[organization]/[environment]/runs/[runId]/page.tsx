export { default, generateMetadata } from "@/features/console/run-detail-page";
