"use client";
/**
 * The layer page's Rename and Delete (`PATCH` / `DELETE .../layers/{layerId}`). Delete says
 * what goes; while published APIs may read the layer it says why it cannot be deleted and who
 * changes that, and offers no delete (the server refuses it too, 409).
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { PencilIcon, Trash2Icon } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogHeading,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { sendJson, type TProblemAnswer } from "@/features/shell/fetch-json";
import type { TLayerUsage } from "@/lib/layers/layer-usage";

interface TLayerRef {
  organization: string;
  workspace: string;
  id: string;
  name: string;
}

/**
 * A dialog's request about the layer (`PATCH` or `DELETE`): on success it closes, says `done`
 * and refreshes the page (after going to `then`); else `problem` holds the server's detail or `fallback`.
 */
function useLayerRequest(layer: TLayerRef) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const send = async (method: string, body: unknown, fallback: (r: TProblemAnswer) => string, done: string, then?: string) => {
    setPending(true);
    const r = await sendJson(`/api/design/${layer.organization}/${layer.workspace}/layers/${encodeURIComponent(layer.id)}`, method, body);
    setPending(false);
    if (!r.ok) return setProblem(fallback(r));
    setOpen(false);
    toast.success(done);
    if (then) router.push(then);
    router.refresh();
  };
  return { open, setOpen, problem, setProblem, pending, send };
}

/** "Rename" and a dialog with the name field. */
export function RenameLayerButton({ layer }: { layer: TLayerRef }) {
  const { open, setOpen, problem: error, setProblem: setError, pending, send } = useLayerRequest(layer);
  const [name, setName] = useState(layer.name);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setName(layer.name);
      setError(null);
    }
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void send("PATCH", { name }, (r) => r.errors["/name"] ?? r.detail ?? "The layer could not be renamed.", "Layer renamed.");
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <PencilIcon aria-hidden="true" /> Rename
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeading
            title="Rename layer"
            description={
              <>
                The name is what people see. The id <span className="font-mono">{layer.id}</span> stays, so calls that name it keep working.
              </>
            }
          />
          <FormField id="layer-name" label="Name" error={error}>
            <Input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
          </FormField>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={pending}>
              Save name
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** "Delete" and a dialog that says what goes, or why the layer cannot be deleted now. */
export function DeleteLayerButton({ layer, readers, layersHref }: { layer: TLayerRef; readers: TLayerUsage; layersHref: string }) {
  const { open, setOpen, problem, setProblem, pending, send } = useLayerRequest(layer);
  const inUse = readers.apis.length > 0;
  const environments = readers.environments.map((e) => e.name).join(", ");
  const confirm = () => send("DELETE", undefined, (r) => r.detail ?? "The layer could not be deleted.", `Layer "${layer.name}" deleted.`, layersHref);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setProblem(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <Trash2Icon aria-hidden="true" /> Delete
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{inUse ? "This layer cannot be deleted now" : "Delete layer?"}</DialogTitle>
          <DialogDescription asChild>
            <div className="grid gap-2">
              {inUse ? (
                <>
                  <p>Published APIs may read &quot;{layer.name}&quot;; their callers name it as a layer_id:</p>
                  <ul className="list-disc pl-5" aria-label="Published APIs that may read the layer">
                    {readers.apis.map((a) => (
                      <li key={`${a.slug}/${a.environment}`}>
                        {a.name} ({a.slug}), release {a.release} in {a.environment}
                      </li>
                    ))}
                  </ul>
                  <p>
                    An admin of the organization first removes it from the readable layers of {environments} (Console → the environment → APIs → Readable
                    layers); then it can be deleted here.
                  </p>
                </>
              ) : (
                <>
                  <p>
                    Deletes &quot;{layer.name}&quot; (<span className="font-mono">{layer.id}</span>) and its data. This cannot be undone; Try-it runs that name
                    it are refused from now on.
                  </p>
                  {readers.environments.length > 0 ? <p>It is also removed from the readable layers of {environments}.</p> : null}
                </>
              )}
            </div>
          </DialogDescription>
        </DialogHeader>
        {problem ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{problem}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{inUse ? "Close" : "Cancel"}</Button>
          </DialogClose>
          {inUse ? null : (
            <Button variant="destructive" onClick={confirm} disabled={pending}>
              Delete layer
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
