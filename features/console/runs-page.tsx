import { ListChecksIcon } from "lucide-react";
import { consoleSectionPage } from "@/features/console/section-page";

export default consoleSectionPage("runs", {
  icon: ListChecksIcon,
  title: "No runs to show yet",
  description: "The environment's runs, with filters and details, arrive here.",
});
