/*
 * bcryptprimitives.dll for Wine 8.0, which has none: Rust's standard
 * library (1.78 and later) draws its random numbers from
 * bcryptprimitives.dll's ProcessPrng and exits (status 53, DLL not found)
 * without it. ProcessPrng's documented form (Microsoft Learn, "ProcessPrng
 * function"): BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData), always
 * TRUE. It is served here by advapi32's RtlGenRandom (SystemFunction036),
 * which Wine has. RtlGenRandom takes a ULONG length, so large requests are
 * served in pieces. Built by scripts/wine-env; used only under Wine.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG piece = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        len -= piece;
    }
    return TRUE;
}
