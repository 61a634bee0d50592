export { default } from "@/features/shell/not-found-page";
