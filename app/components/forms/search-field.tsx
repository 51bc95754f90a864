import { type ButtonHTMLAttributes, type ReactNode, type Ref, useRef } from "react";
import { Button } from "~/components/ui/button";
import { Input, type InputProps } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

export interface SearchFieldProps extends Omit<InputProps, "id" | "type" | "placeholder"> {
  id: string;
  /** The field's name for screen readers (a visually hidden label) and its placeholder. */
  label: string;
  inputRef?: Ref<HTMLInputElement>;
  /**
   * The search's submit button ("Find"), posting the surrounding form; left out where the search runs
   * without one (a picker with JavaScript). With `enterFinds`, Enter in the field presses it instead of
   * submitting the form with its default button.
   */
  find?: { label: ReactNode; enterFinds?: boolean } & Pick<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "name" | "value" | "formNoValidate">;
  /** Hides the whole row (a short list needs no search). */
  hidden?: boolean;
  /** Shown after the button, in the same row (e.g. a picker's "More"). */
  children?: ReactNode;
}

/**
 * The search row of a picker or checklist inside a form: a visually hidden label, the search field and its
 * "Find" submit button, then `children`.
 */
export function SearchField({ id, label, inputRef, find, hidden, children, onKeyDown, ...input }: SearchFieldProps) {
  const findButton = useRef<HTMLButtonElement>(null);
  const { label: findLabel, enterFinds, ...findProps } = find ?? { label: null };
  return (
    <div className="flex flex-wrap items-center gap-2" hidden={hidden}>
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <Input
        id={id}
        type="search"
        ref={inputRef}
        placeholder={label}
        autoComplete="off"
        className="min-w-0 flex-1 basis-40"
        {...input}
        onKeyDown={(event) => {
          if (enterFinds && event.key === "Enter") {
            // Enter searches, it does not save the form.
            event.preventDefault();
            findButton.current?.click();
          }
          onKeyDown?.(event);
        }}
      />
      {find ? (
        <Button ref={findButton} type="submit" variant="outline" size="sm" {...findProps}>
          {findLabel}
        </Button>
      ) : null}
      {children}
    </div>
  );
}
