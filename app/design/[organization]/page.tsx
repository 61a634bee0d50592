export { DesignOrganizationPage as default } from "@/features/design/design-entry";
