import { WorkflowIcon } from "lucide-react";
import { designSectionPage } from "@/features/design/section-page";

export default designSectionPage("flows", {
  icon: WorkflowIcon,
  title: "No flows to show yet",
  description: "Flows are reusable ETL pipelines with immutable, numbered versions. The flow list and editor arrive here.",
});
