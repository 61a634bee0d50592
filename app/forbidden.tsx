export { default } from "@/features/shell/not-allowed-page";
