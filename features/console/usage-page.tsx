import { ChartColumnIcon } from "lucide-react";
import { consoleSectionPage } from "@/features/console/section-page";

export default consoleSectionPage("usage", {
  icon: ChartColumnIcon,
  title: "No usage to show yet",
  description: "ETL runs, processing time and API requests per day, per API and per consumer arrive here.",
});
