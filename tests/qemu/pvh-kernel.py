# SPDX-License-Identifier: BSD-2-Clause
"""pvh-kernel.py BZIMAGE OUT -- the kernel inside an x86 bzImage as the ELF
file (vmlinux) that qemu starts at its PVH entry point.

A bzImage decompresses itself at every boot: Debian's (xz) takes about
4 s of the guest's CPU under TCG, each of the suite's two dozen boots.
Its payload is the ELF vmlinux; qemu -kernel boots that directly when it
carries the PVH entry note (Xen's XEN_ELFNOTE_PHYS32_ENTRY, type 18: a
kernel built with CONFIG_PVH).

Writes OUT only when the payload is an ELF file with that note; exits 0
then, 1 when the kernel cannot be booted that way (why on stderr: an
unknown compression, no PVH note), 2 on usage or I/O errors.
"""
import gzip
import lzma
import struct
import sys

PHYS32_ENTRY = 18  # XEN_ELFNOTE_PHYS32_ENTRY
PT_NOTE = 4


def payload(image):
    """The decompressed payload of a bzImage, or None."""
    # The setup header's payload_offset (0x248) and length (0x24c) name
    # the compressed kernel, relative to the protected-mode code, which
    # follows (setup_sects + 1) sectors of 512 bytes (0 means 4).
    if len(image) < 0x250 or image[0x202:0x206] != b"HdrS":
        return None
    setup_sects = image[0x1F1] or 4
    start = (setup_sects + 1) * 512
    off, length = struct.unpack_from("<II", image, 0x248)
    data = image[start + off:start + off + length]
    if data.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data)
    if data.startswith(b"\x1f\x8b"):
        return gzip.decompress(data)
    return None


def has_pvh_note(elf):
    """Whether a 64-bit little-endian ELF file has the PVH entry note."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        return False
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", elf, phoff + i * phentsize)
        if p_type != PT_NOTE:
            continue
        pos, end = p_offset, p_offset + p_filesz
        while pos + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, pos)
            name = elf[pos + 12:pos + 12 + namesz]
            if name.rstrip(b"\0") == b"Xen" and ntype == PHYS32_ENTRY:
                return True
            pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def main(argv):
    if len(argv) != 3:
        print("usage: pvh-kernel.py BZIMAGE OUT", file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as f:
            image = f.read()
    except OSError as e:
        print("pvh-kernel.py: %s" % e, file=sys.stderr)
        return 2
    try:
        elf = payload(image)
    except (lzma.LZMAError, OSError, EOFError) as e:
        print("pvh-kernel.py: %s: cannot decompress: %s" % (argv[1], e),
              file=sys.stderr)
        return 1
    if elf is None:
        print("pvh-kernel.py: %s: not a bzImage with an xz or gzip payload"
              % argv[1], file=sys.stderr)
        return 1
    if not has_pvh_note(elf):
        print("pvh-kernel.py: %s: its vmlinux has no PVH entry note"
              " (a kernel without CONFIG_PVH)" % argv[1], file=sys.stderr)
        return 1
    try:
        with open(argv[2], "wb") as f:
            f.write(elf)
    except OSError as e:
        print("pvh-kernel.py: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
