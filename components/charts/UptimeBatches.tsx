"use client";

import { Fragment, useMemo, type ReactNode } from "react";
import { answerFor, uptimeBatches, uptimePath, type Answer } from "@/components/account/answers";
import { useApi } from "@/components/account/use-api";
import { UptimeBatchSchema, type Uptime, type UptimeBatch } from "@/lib/schemas/stats";

type Row<L> = (link: L, uptime: Uptime | null | undefined) => ReactNode;

/**
 * Renders tracked links with their 90-day strips, read 100 links a request (GET
 * /api/account/links/uptime?ids=…), or taken from the server's answers for the first paint. A row's
 * uptime is undefined while its batch is read and null when the answer leaves its link out (deleted
 * meanwhile) or the read failed.
 */
export function UptimeBatches<L extends { id: string }>({
  links,
  answers = [],
  children,
}: {
  links: readonly L[];
  answers?: readonly Answer<UptimeBatch>[];
  children: Row<L>;
}) {
  return uptimeBatches(links).map((batch, index) => (
    <UptimeBatchRows key={index} links={batch} answers={answers} row={children} />
  ));
}

function UptimeBatchRows<L extends { id: string }>({
  links,
  answers,
  row,
}: {
  links: readonly L[];
  answers: readonly Answer<UptimeBatch>[];
  row: Row<L>;
}) {
  const path = uptimePath(links.map((link) => link.id));
  const { data, loading } = useApi(path, UptimeBatchSchema, { initial: answerFor(answers, path) });
  const found = useMemo(() => new Map(data?.items.map(({ id, ...uptime }) => [id, uptime])), [data]);
  return links.map((link) => (
    <Fragment key={link.id}>{row(link, found.get(link.id) ?? (loading ? undefined : null))}</Fragment>
  ));
}
