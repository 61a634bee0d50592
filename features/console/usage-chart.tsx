"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TUsageDay } from "@/lib/metering/usage-report";

/** ETL runs and API requests per day (bars) for one workspace; the table beside it carries the same numbers for screen readers. */
export function UsageChart({ days, label }: { days: TUsageDay[]; label: string }) {
  return (
    <figure aria-label={label} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days.map((d) => ({ ...d, day: d.day.slice(5) }))} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" className="stroke-border" />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend />
          <Bar dataKey="apiRequests" name="API requests" fill="var(--color-chart-1, #2563eb)" />
          <Bar dataKey="etlRuns" name="ETL runs" fill="var(--color-chart-2, #16a34a)" />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
