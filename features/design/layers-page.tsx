import { LayersIcon } from "lucide-react";
import { designSectionPage } from "@/features/design/section-page";

export default designSectionPage("layers", {
  icon: LayersIcon,
  title: "No layers to show yet",
  description: "Layers are the workspace's feature collections and tables. Their list, previews and uploads arrive here.",
});
