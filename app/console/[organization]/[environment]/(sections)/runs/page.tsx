export { default, generateMetadata } from "@/features/console/runs-page";
