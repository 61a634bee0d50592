import { UsersIcon } from "lucide-react";
import { consoleSectionPage } from "@/features/console/section-page";

export default consoleSectionPage("consumers", {
  icon: UsersIcon,
  title: "No consumers to show yet",
  description: "Consumers are the callers of this environment's APIs; creating, renaming and granting access arrive here.",
});
