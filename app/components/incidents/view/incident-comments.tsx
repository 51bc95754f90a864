import { getFormProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogFooter, DialogTrigger } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { COMMENT_PARAM, COMMENT_SECTION, COMMENTS_SHOWN_PARAM, EDIT_PARAM, MAX_COMMENTS_SHOWN, VIEW_INTENTS } from "~/lib/incident-view";
import { COMMENT_MAX, COMMENTS_PAGE } from "~/modules/incidents/constants";
import type { IncidentComment } from "~/modules/incidents/queries.server";
import { DateTime, ShowEarlier, useDateTime, useViewDialog } from "./format";
import { AttachmentsField, FileList } from "./incident-files";

const commentValidator = zodValidator(() => import("~/modules/incidents/schema").then((m) => m.CommentSchema));

/**
 * The comments section (`#commentSection`, SPEC.md section 2): the comments oldest first with their
 * author, time, "edited" information and attachments; the viewer's own comments can be edited (in
 * place, at `?edit=<id>`) and deleted (`?dialog=delete-comment&comment=<id>`); then the form that
 * posts a new one with attachments (a multipart post).
 */
export function IncidentComments({
  comments,
  total,
  editing,
  maxBytes,
  postResult,
  editResult,
}: {
  comments: IncidentComment[];
  total: number;
  editing: number | null;
  maxBytes: number;
  postResult?: SubmissionResult<string[]>;
  editResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("incidentView");
  const older = total - comments.length;
  return (
    <Card id={COMMENT_SECTION} tabIndex={-1} className="scroll-mt-4 focus:outline-hidden">
      <CardHeader>
        <CardTitle as="h2">{t("incidents:fields.comments")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        {older > 0 ? (
          <p className="flex flex-wrap items-baseline gap-x-3 text-sm text-muted-foreground">
            {t("comments.older", { count: older })}
            <ShowEarlier param={COMMENTS_SHOWN_PARAM} shown={comments.length} page={COMMENTS_PAGE} max={MAX_COMMENTS_SHOWN} anchor={COMMENT_SECTION}>
              {t("comments.showEarlier")}
            </ShowEarlier>
          </p>
        ) : null}
        {comments.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("comments.empty")}</p>
        ) : (
          <ol className="grid gap-4">
            {comments.map((comment) => (
              <li key={comment.id}>
                <CommentItem comment={comment} editing={editing === comment.id && comment.own} editResult={editResult} />
              </li>
            ))}
          </ol>
        )}
        <NewComment key={comments.at(-1)?.id ?? 0} maxBytes={maxBytes} lastResult={postResult} />
      </CardContent>
    </Card>
  );
}

function CommentItem({ comment, editing, editResult }: { comment: IncidentComment; editing: boolean; editResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const format = useDateTime();
  const deleteDialog = useViewDialog("delete-comment");
  const when = format(comment.createdAt);
  return (
    <article
      id={`comment-${comment.id}`}
      aria-label={t("comments.label", {
        name: comment.author.name,
        date: when,
      })}
      className="grid gap-2 rounded-md border p-3"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <p>
          <span className="font-medium">{comment.author.name || t("comments.unknownAuthor")}</span>
          <span className="text-muted-foreground">
            {" · "}
            <DateTime iso={comment.createdAt} />
          </span>
        </p>
        {comment.editedAt ? (
          <p className="text-xs text-muted-foreground">
            {comment.editedBy
              ? t("comments.editedBy", {
                  date: format(comment.editedAt),
                  name: comment.editedBy,
                })
              : t("comments.edited", { date: format(comment.editedAt) })}
          </p>
        ) : null}
      </header>
      {editing ? (
        <EditComment comment={comment} lastResult={editResult} />
      ) : (
        <>
          <p className="whitespace-pre-wrap break-words text-sm">{comment.body}</p>
          {comment.files.length ? (
            <div className="grid gap-1">
              <h3 className="text-xs font-medium text-muted-foreground">{t("comments.attachments")}</h3>
              <FileList files={comment.files} />
            </div>
          ) : null}
          {comment.own ? (
            <div className="flex flex-wrap gap-2">
              <Link
                to={`?${EDIT_PARAM}=${comment.id}#comment-${comment.id}`}
                preventScrollReset
                className={buttonVariants({ variant: "outline", size: "sm" })}
                aria-label={t("comments.editLabel", { date: when })}
              >
                {t("comments.edit")}
              </Link>
              <DialogTrigger
                to={deleteDialog.openTo({ [COMMENT_PARAM]: comment.id })}
                variant="outline"
                size="sm"
                className="text-destructive hover:text-destructive"
                aria-label={t("comments.deleteLabel", { date: when })}
              >
                {t("comments.delete")}
              </DialogTrigger>
            </div>
          ) : null}
        </>
      )}
    </article>
  );
}

function EditComment({ comment, lastResult }: { comment: IncidentComment; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(commentValidator, {
    id: `edit-comment-${comment.id}`,
    lastResult,
    defaultValue: { body: comment.body },
  });
  const errors = text(fields.body.errors);
  // The page without `?edit=`.
  const { closeTo } = useViewDialog("delete-comment");
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3">
      <input type="hidden" name="intent" value={VIEW_INTENTS.editComment} />
      <input type="hidden" name="commentId" value={comment.id} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
      <Field label={t("comments.editField")} htmlFor={fields.body.id} errors={errors} required>
        <Textarea {...getTextareaProps(fields.body)} maxLength={COMMENT_MAX} rows={4} />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to={`${closeTo}#comment-${comment.id}`} preventScrollReset className={buttonVariants({ variant: "outline" })}>
          {t("common:actions.cancel")}
        </Link>
        <SubmitButton intent={VIEW_INTENTS.editComment}>{t("comments.save")}</SubmitButton>
      </div>
    </Form>
  );
}

function NewComment({ maxBytes, lastResult }: { maxBytes: number; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(commentValidator, {
    id: "new-comment",
    lastResult,
  });
  const errors = text(fields.body.errors);
  const filesId = "new-comment-files";
  const fileErrors = text((lastResult?.error?.files ?? null) as string[] | null);
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-3 border-t pt-4">
      <h3 className="text-base font-semibold">{t("comments.new")}</h3>
      <input type="hidden" name="intent" value={VIEW_INTENTS.comment} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
      <Field label={t("comments.body")} htmlFor={fields.body.id} errors={errors} required>
        <Textarea {...getTextareaProps(fields.body)} maxLength={COMMENT_MAX} rows={4} />
      </Field>
      <AttachmentsField label={t("comments.attachments")} id={filesId} errors={fileErrors} maxBytes={maxBytes} />
      <div>
        <SubmitButton intent={VIEW_INTENTS.comment}>{t("comments.post")}</SubmitButton>
      </div>
    </Form>
  );
}

/** `?dialog=delete-comment&comment=<id>`: the confirmation before one's own comment is deleted. */
export function DeleteCommentDialog({ comments }: { comments: IncidentComment[] }) {
  const { t } = useTranslation("incidentView");
  const dialog = useViewDialog("delete-comment");
  const id = dialog.params.get(COMMENT_PARAM);
  const comment = comments.find((c) => String(c.id) === id && c.own);
  return (
    <Dialog
      open={dialog.open && Boolean(comment)}
      closeTo={`${dialog.closeTo}#${COMMENT_SECTION}`}
      title={t("comments.deleteTitle")}
      description={t("comments.deleteText")}
      closeLabel={t("common:actions.close")}
      size="sm"
    >
      {comment ? <blockquote className="mb-4 line-clamp-4 whitespace-pre-wrap break-words border-l-2 pl-3 text-sm">{comment.body}</blockquote> : null}
      <Form method="post" className="grid gap-4">
        <input type="hidden" name="intent" value={VIEW_INTENTS.deleteComment} />
        <input type="hidden" name="commentId" value={comment?.id ?? ""} />
        <DialogFooter className="mt-2">
          <Link to={`${dialog.closeTo}#${COMMENT_SECTION}`} preventScrollReset className={buttonVariants({ variant: "outline" })}>
            {t("common:actions.cancel")}
          </Link>
          <SubmitButton intent={VIEW_INTENTS.deleteComment} variant="destructive">
            {t("comments.delete")}
          </SubmitButton>
        </DialogFooter>
      </Form>
    </Dialog>
  );
}
