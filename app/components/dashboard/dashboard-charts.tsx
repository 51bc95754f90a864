import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type Figures, useFigureFormat } from "./dashboard-tables";

/**
 * The dashboard's charts (recharts), loaded by a dynamic import only when the user asks for them
 * (`DashboardChartsToggle`): the same figures as the tables above, which remain the accessible version
 * (the charts are hidden from screen readers and from print).
 */
export default function DashboardCharts({ figures }: { figures: Figures }) {
  const { t } = useTranslation("dashboard");
  const f = useFigureFormat();
  const months = figures.months.map((m) => ({
    name: f.month(m.month),
    [t("months.done")]: m.done,
    [t("months.rejected")]: m.rejected,
    [t("months.open")]: m.open,
    [t("months.created")]: m.created,
  }));
  const types = figures.types.map((type) => ({ name: type.name ?? t("types.none"), [t("types.count")]: type.count }));
  const assignees = figures.assignees.slice(0, 15).map((a) => ({
    name: a.name ?? t("assignees.unassigned"),
    [t("assignees.open")]: a.open,
    [t("assignees.done")]: a.done,
  }));
  return (
    <div aria-hidden="true" className="grid gap-6 lg:grid-cols-2 print:hidden" data-testid="dashboard-charts">
      <figure className="h-72 rounded-md border bg-background p-2 lg:col-span-2">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={months} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="name" fontSize={12} />
            <YAxis allowDecimals={false} fontSize={12} />
            <Tooltip />
            <Legend />
            <Bar dataKey={t("months.done")} stackId="s" fill="#15803d" />
            <Bar dataKey={t("months.rejected")} stackId="s" fill="#b91c1c" />
            <Bar dataKey={t("months.open")} stackId="s" fill="#1d4ed8" />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <figure className="h-80 rounded-md border bg-background p-2">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={types} layout="vertical" margin={{ left: 24 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" allowDecimals={false} fontSize={12} />
            <YAxis type="category" dataKey="name" width={120} fontSize={12} />
            <Tooltip />
            <Bar dataKey={t("types.count")} fill="#1e3a8a" />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <figure className="h-80 rounded-md border bg-background p-2">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={assignees} layout="vertical" margin={{ left: 24 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" allowDecimals={false} fontSize={12} />
            <YAxis type="category" dataKey="name" width={120} fontSize={12} />
            <Tooltip />
            <Legend />
            <Bar dataKey={t("assignees.open")} stackId="a" fill="#1d4ed8" />
            <Bar dataKey={t("assignees.done")} stackId="a" fill="#15803d" />
          </BarChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
