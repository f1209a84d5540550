// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MenuButton } from './menu-button.tsx';

afterEach(cleanup);

const items = [
  { label: 'One', href: '/one' },
  { label: 'Two', href: '/two' },
  { label: 'Three', href: '/three' },
];

describe('MenuButton', () => {
  it('opens on ArrowDown at the first item, wraps with the arrows, and closes on Escape back to the button', async () => {
    const user = userEvent.setup();
    render(<MenuButton label="Menu" items={items} />);
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    button.focus();
    await user.keyboard('{ArrowDown}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'One' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Three' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'One' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('opens on ArrowUp at the last item', async () => {
    const user = userEvent.setup();
    render(<MenuButton label="Menu" items={items} />);
    screen.getByRole('button', { name: 'Menu' }).focus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Three' })).toHaveFocus();
  });

  it('labels the menu by its button and closes on a second click', async () => {
    const user = userEvent.setup();
    render(<MenuButton label="Menu" items={items} />);
    const button = screen.getByRole('button', { name: 'Menu' });
    await user.click(button);
    expect(screen.getByRole('menu', { name: 'Menu' })).toBeInTheDocument();
    await user.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
