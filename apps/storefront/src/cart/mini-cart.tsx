import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

interface MiniCartState {
  open: boolean;
  setOpen: (open: boolean) => void;
}

const MiniCartContext = createContext<MiniCartState>({ open: false, setOpen: () => {} });

/** Whether the header's mini-cart is open: the cart button toggles it, adding to the cart opens it. */
export function MiniCartProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const state = useMemo(() => ({ open, setOpen }), [open]);
  return <MiniCartContext.Provider value={state}>{children}</MiniCartContext.Provider>;
}

export function useMiniCart(): MiniCartState {
  return useContext(MiniCartContext);
}
