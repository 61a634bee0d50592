export { ConsoleOrganizationPage as default } from "@/features/console/console-entry";
