//! The module's global allocator: power-of-two size classes with one free list each.
//!
//! The module allocates little and briefly (request texts, header values, error messages);
//! response bodies and uploaded bytes stay in JavaScript. For that load a size-class allocator
//! is as fast as the standard one (dlmalloc) and a few hundred bytes instead of ~8 KB of code,
//! which the package size budget needs. Freed blocks are reused for the same class, so a
//! steady stream of calls keeps linear memory flat (`tests/memory.rs` checks it); memory is
//! never returned to the browser, as with dlmalloc.
//!
//! Single-threaded by construction: the module is built without the `atomics` feature, so no
//! two calls into it overlap.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32;
use core::cell::UnsafeCell;
use core::ptr;

/// The smallest block: room for the free-list link and the usual 16-byte alignment.
const MIN_CLASS: u32 = 4; // 2^4 = 16 bytes
/// Size classes 2^4 ..= 2^31 (larger requests cannot fit in a 32-bit address space anyway).
const CLASSES: usize = 28;
const PAGE: usize = 65_536;
/// Linear memory grows by at least this many pages (256 KiB) at a time.
const GROW_PAGES: usize = 4;

struct State {
    /// Head of the free list of each class (a freed block's first word links to the next).
    free: [*mut u8; CLASSES],
    /// Start of the never-used part of the current region, and its end.
    next: usize,
    end: usize,
}

/// The allocator (see the module documentation).
pub struct SizeClasses {
    state: UnsafeCell<State>,
}

// SAFETY: wasm32 without the atomics feature has one thread; nothing else can reach `state`.
#[cfg(not(target_feature = "atomics"))]
unsafe impl Sync for SizeClasses {}

impl SizeClasses {
    /// An allocator with empty free lists; it takes memory from the browser as needed.
    pub const fn new() -> Self {
        SizeClasses {
            state: UnsafeCell::new(State {
                free: [ptr::null_mut(); CLASSES],
                next: 0,
                end: 0,
            }),
        }
    }
}

/// The class index of a layout: the smallest power of two >= both size and alignment.
/// Blocks are aligned to their size up to a page, so alignments beyond a page are refused.
fn class_of(layout: Layout) -> Option<usize> {
    if layout.align() > PAGE {
        return None;
    }
    let need = layout.size().max(layout.align()).max(1 << MIN_CLASS);
    let bits = usize::BITS - (need - 1).leading_zeros();
    usize::try_from(bits - MIN_CLASS)
        .ok()
        .filter(|&class| class < CLASSES)
}

impl State {
    /// A fresh block of `size` bytes (a power of two), aligned to its size up to a page,
    /// growing linear memory when the current region is used up.
    fn carve(&mut self, size: usize) -> *mut u8 {
        let align = size.min(PAGE);
        loop {
            // Checked: at the top of a 4 GiB memory these sums would wrap.
            let start = self.next.checked_add(align - 1).map(|n| n & !(align - 1));
            if let Some(stop) = start
                .and_then(|start| start.checked_add(size))
                .filter(|&stop| stop <= self.end)
            {
                self.next = stop;
                return (stop - size) as *mut u8;
            }
            // Whole pages: enough for this block wherever it starts, and at least GROW_PAGES so
            // that small blocks do not grow memory (and detach the JS views of it) one page at a
            // time.
            let pages = (size.div_ceil(PAGE) + 1).max(GROW_PAGES);
            let previous = wasm32::memory_grow::<0>(pages);
            if previous == usize::MAX {
                return ptr::null_mut();
            }
            let Some((base, end)) = previous
                .checked_mul(PAGE)
                .and_then(|base| Some((base, base.checked_add(pages.checked_mul(PAGE)?)?)))
            else {
                return ptr::null_mut();
            };
            if base != self.end {
                // Not a continuation of the current region (the first growth): start afresh.
                self.next = base;
            }
            self.end = end;
        }
    }
}

unsafe impl GlobalAlloc for SizeClasses {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            return ptr::null_mut();
        };
        // SAFETY: single-threaded (see `Sync`), and no reference to the state outlives this call.
        let state = unsafe { &mut *self.state.get() };
        let Some(head) = state.free.get_mut(class) else {
            return ptr::null_mut();
        };
        if !head.is_null() {
            let block = *head;
            // SAFETY: `block` is a freed block of this class; its first word is the next link.
            *head = unsafe { *(block as *mut *mut u8) };
            return block;
        }
        state.carve(1 << (class as u32 + MIN_CLASS))
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout) else {
            return;
        };
        // SAFETY: single-threaded (see `Sync`).
        let state = unsafe { &mut *self.state.get() };
        if let Some(head) = state.free.get_mut(class) {
            // SAFETY: `block` came from `alloc` with this layout, so it holds at least 16 bytes.
            unsafe { *(block as *mut *mut u8) = *head };
            *head = block;
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `GlobalAlloc::realloc`'s contract guarantees a valid layout for `new_size`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if class_of(layout) == class_of(new_layout) {
            return block; // the block already has room
        }
        // SAFETY: the usual allocate-copy-free, as `GlobalAlloc::realloc` does by default.
        unsafe {
            let moved = self.alloc(new_layout);
            if !moved.is_null() {
                ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
            moved
        }
    }
}
