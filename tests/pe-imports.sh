#!/bin/sh
# pe-imports.sh - every import of Windows programs and DLLs, refused when the oldest Windows they target lacks it.
# usage: sh tests/pe-imports.sh [--max-os M.m] [--markdown] PE...
#
# Reads each PE's import table and headers with mingw-w64's objdump and
# checks, for every PE given:
#   - its subsystem version and OS version are at most M.m (--max-os,
#     default 5.1: Windows XP; XP x64 and Server 2003 are 5.2); Windows
#     refuses to start a program whose subsystem version is newer than
#     itself ("not a valid Win32 application");
#   - every DLL it imports from is one Windows XP ships or one of the PEs
#     given (a libwinpthread-1.dll or libgcc_s_dw2-1.dll nobody ships
#     would stop the program before main);
#   - no import is a function that Windows XP lacks: those Vista and later
#     added to KERNEL32 (GetTickCount64, condition variables, SRW locks,
#     InitOnce, fibre-local storage, symbolic links, the handle-based file
#     information calls, the *Ex synchronisation constructors ...), ADVAPI32,
#     USER32, SHELL32 and GDI32, and the functions XP's msvcrt.dll (7.0)
#     has not (the *_s family, strnlen, _fseeki64 ...).  A denial list
#     cannot be complete; it holds every such function that a C runtime,
#     SDL2 or a careless seam is known to reach for.
# With --markdown it checks nothing and prints, for docs/windows.md, one
# section per PE: its headers and every import, by DLL.
# Exits 0 when every PE passes, 1 when one does not (each reason on a line
# of its own), 2 on bad usage.
set -u
usage="usage: pe-imports.sh [--max-os M.m] [--markdown] PE..."
MAX=5.1
MD=0
while [ $# -gt 0 ]; do
    case $1 in
        --max-os) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
                  case $2 in [0-9]*.[0-9]*) MAX=$2;; *) echo "pe-imports: bad version '$2' ($usage)" >&2; exit 2;; esac
                  shift 2;;
        --markdown) MD=1; shift;;
        --) shift; break;;
        -*) echo "pe-imports: unknown option '$1' ($usage)" >&2; exit 2;;
        *) break;;
    esac
done
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }

# Either objdump reads both PE32 and PE32+.
OBJDUMP=${OBJDUMP:-}
if [ -z "$OBJDUMP" ]; then
    for o in x86_64-w64-mingw32-objdump i686-w64-mingw32-objdump; do
        command -v "$o" >/dev/null 2>&1 && { OBJDUMP=$o; break; }
    done
fi
if [ -z "$OBJDUMP" ]; then
    echo "pe-imports: no mingw-w64 objdump (apt-get install binutils-mingw-w64-i686, which gcc-mingw-w64-i686-win32 brings)"
    exit 1
fi

# The DLLs of a Windows XP installation a program may import from
# (lower case, without .dll).
XP_DLLS="kernel32 ntdll user32 gdi32 advapi32 shell32 shlwapi ole32 oleaut32 msvcrt winmm imm32 version
    setupapi cfgmgr32 hid comdlg32 comctl32 ws2_32 wsock32 uxtheme dinput dinput8 dsound ddraw opengl32
    glu32 iphlpapi dbghelp psapi userenv winspool.drv crypt32 rpcrt4 secur32 netapi32 mpr powrprof
    wtsapi32 winhttp wininet urlmon msimg32 d3d9"

# Functions of those DLLs that Windows XP (SP3, 32-bit) does not have:
# DLL=extended regular expression, anchored.
KERNEL32_NEW='GetTickCount64|InitializeConditionVariable|SleepConditionVariable(CS|SRW)|Wake(All)?ConditionVariable'
KERNEL32_NEW=$KERNEL32_NEW'|(Initialize|Acquire|Release|TryAcquire)SRWLock(Exclusive|Shared)?|InitOnce[A-Za-z]*'
KERNEL32_NEW=$KERNEL32_NEW'|Fls(Alloc|Free|GetValue|SetValue)|CreateSymbolicLink[A-Za-z]*|GetFileInformationByHandleEx'
KERNEL32_NEW=$KERNEL32_NEW'|SetFileInformationByHandle|GetFinalPathNameByHandle[AW]|CancelIoEx|CancelSynchronousIo'
KERNEL32_NEW=$KERNEL32_NEW'|Create(Event|Mutex|Semaphore|WaitableTimer)Ex[AW]|QueryFullProcessImageName[AW]'
KERNEL32_NEW=$KERNEL32_NEW'|InitializeCriticalSectionEx|GetThreadId|GetProcessIdOfThread|GetCurrentProcessorNumber(Ex)?'
KERNEL32_NEW=$KERNEL32_NEW'|FlushProcessWriteBuffers|[A-Za-z]*Threadpool[A-Za-z]*|GetErrorMode|(Get|Set)ThreadErrorMode'
KERNEL32_NEW=$KERNEL32_NEW'|Query(Process|Thread|IdleProcessor)CycleTime|GetProductInfo|(Get|Set)DynamicTimeZoneInformation'
KERNEL32_NEW=$KERNEL32_NEW'|GetLocaleInfoEx|LCMapStringEx|CompareStringEx|CompareStringOrdinal|FindNLSStringEx'
KERNEL32_NEW=$KERNEL32_NEW'|Get(User|System)DefaultLocaleName|LocaleNameToLCID|LCIDToLocaleName|ResolveLocaleName'
KERNEL32_NEW=$KERNEL32_NEW'|Get(Date|Time|Number|Currency)FormatEx|EnumSystemLocalesEx|IsValidLocaleName|GetFileMUIPath'
KERNEL32_NEW=$KERNEL32_NEW'|GetNamedPipe(Client|Server)(ProcessId|SessionId)|SetFileCompletionNotificationModes'
KERNEL32_NEW=$KERNEL32_NEW'|GetQueuedCompletionStatusEx|GetOverlappedResultEx|CreateFile2|CopyFile2'
KERNEL32_NEW=$KERNEL32_NEW'|GetSystemTimePreciseAsFileTime|WaitOnAddress|WakeByAddress(Single|All)'
KERNEL32_NEW=$KERNEL32_NEW'|AddDllDirectory|RemoveDllDirectory|SetDefaultDllDirectories|InterlockedCompareExchange64'
KERNEL32_NEW=$KERNEL32_NEW'|Wow64(Disable|Revert)Wow64FsRedirection|SetThreadStackGuarantee|GetVolumeInformationByHandleW'
KERNEL32_NEW=$KERNEL32_NEW'|Get(Maximum|Active)Processor(Count|GroupCount)|GetLogicalProcessorInformationEx'
KERNEL32_NEW=$KERNEL32_NEW'|(Get|Set)ThreadGroupAffinity|CreateRemoteThreadEx|(Initialize|Update|Delete)ProcThreadAttributeList'
KERNEL32_NEW=$KERNEL32_NEW'|[A-Za-z]*Transacted[AW]|RegisterApplication(Restart|RecoveryCallback)|GetApplicationRestartSettings'
ADVAPI32_NEW='Reg(GetValue|DeleteTree|SetKeyValue|DeleteKeyEx|CopyTree|LoadMUIString|DeleteKeyValue)[AW]'
ADVAPI32_NEW=$ADVAPI32_NEW'|Event(Register|Unregister|Write|WriteEx|WriteString|Enabled|ProviderEnabled|ActivityIdControl)'
USER32_NEW='SetProcessDPIAware|IsProcessDPIAware|GetDpiFor(Window|System)|SetProcessDpiAwarenessContext'
USER32_NEW=$USER32_NEW'|(Add|Remove)ClipboardFormatListener|ChangeWindowMessageFilter(Ex)?|(Register|Unregister)TouchWindow'
USER32_NEW=$USER32_NEW'|IsTouchWindow|GetTouchInputInfo|CloseTouchInputHandle|GetGestureInfo|GetPointer[A-Za-z]*'
USER32_NEW=$USER32_NEW'|(Register|Unregister)PowerSettingNotification|ShutdownBlockReason[A-Za-z]*|QueryDisplayConfig'
USER32_NEW=$USER32_NEW'|GetDisplayConfigBufferSizes|DisplayConfig(Get|Set)DeviceInfo|SetDisplayConfig'
USER32_NEW=$USER32_NEW'|(LogicalToPhysical|PhysicalToLogical)Point|AdjustWindowRectExForDpi|EnableNonClientDpiScaling'
USER32_NEW=$USER32_NEW'|CalculatePopupWindowPosition|(Get|Set)WindowDisplayAffinity'
SHELL32_NEW='SHGetKnownFolderPath|SHCreateItemFromParsingName|SHGetStockIconInfo|SHGetPropertyStoreForWindow'
SHELL32_NEW=$SHELL32_NEW'|SetCurrentProcessExplicitAppUserModelID'
GDI32_NEW='D3DKMT[A-Za-z]*'
OLE32_NEW='CoGetApartmentType'
# XP's msvcrt.dll is the C runtime of Visual C++ 7.0: none of the secure
# *_s functions, nor what Vista's added beside them.
MSVCRT_NEW='[A-Za-z_0-9]+_s|strnlen|wcsnlen|_fseeki64|_ftelli64|_get_errno|_set_errno|_(get|set)_(doserrno|fmode)'
MSVCRT_NEW=$MSVCRT_NEW'|_(get|set)_invalid_parameter_handler|_create_locale|_free_locale|_[a-z]+_l'

# The PEs' own names (lower case): they may import from each other.
SHIPPED=""
for pe in "$@"; do
    [ -f "$pe" ] || { echo "pe-imports: '$pe' is not a file"; exit 1; }
    SHIPPED="$SHIPPED $(basename "$pe" | tr '[:upper:]' '[:lower:]' | sed 's/\.dll$//')"
done

# parse PE: "os M.m", "subsystem M.m", "machine X", then "import DLL FUNCTION" lines
# (FUNCTION "#N" for an import by ordinal).
parse() {
    "$OBJDUMP" -p "$1" 2>&1 | awk '
        /file format/ { print "format", $NF }
        /^MajorOSystemVersion/ { osM = $2 } /^MinorOSystemVersion/ { print "os", osM "." $2 }
        /^MajorSubsystemVersion/ { ssM = $2 } /^MinorSubsystemVersion/ { print "subsystem", ssM "." $2 }
        /^Subsystem/ { s = $0; sub(/^[^(]*\(/, "", s); sub(/\).*/, "", s); print "kind", s }
        /^Entry d / && $3 !~ /^0+$/ { print "delay" }
        /^\tDLL Name: / { dll = $3; next }
        /^$/ { dll = "" }
        dll != "" && /^\t[0-9a-f]+\t/ {
            if (NF >= 3) print "import", dll, $3; else print "import", dll, "#" $2
        }'
}

winname() { case $1 in 5.1) echo XP;; 5.2) echo "XP x64, Server 2003";; 6.0) echo Vista;; 6.1) echo 7;; *) echo "NT $1";; esac; }
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
newer() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, "."); split(b, y, "."); exit !(x[1] > y[1] || (x[1] == y[1] && x[2] > y[2])) }'; }

for pe in "$@"; do
    info=$(parse "$pe")
    name=$(basename "$pe")
    if ! printf '%s\n' "$info" | grep -q '^format pei-'; then
        bad "$name: not a PE that $OBJDUMP reads: $(printf '%s\n' "$info" | head -n 1)"
        continue
    fi
    fmt=$(printf '%s\n' "$info" | sed -n 's/^format //p')
    os=$(printf '%s\n' "$info" | sed -n 's/^os //p')
    ss=$(printf '%s\n' "$info" | sed -n 's/^subsystem //p')
    kind=$(printf '%s\n' "$info" | sed -n 's/^kind //p')
    imports=$(printf '%s\n' "$info" | sed -n 's/^import //p' | sort -f -u)
    n=$(printf '%s\n' "$imports" | grep -c .)
    if [ "$MD" = 1 ]; then
        echo "### $name"
        echo
        echo "$fmt, $kind, subsystem version $ss, OS version $os; $n imports."
        echo
        printf '%s\n' "$imports" | awk '
            $1 != d { if (d != "") printf "\n"; d = $1; printf "- **%s**: %s", d, $2; next }
            { printf ", %s", $2 }
            END { if (d != "") printf "\n" }'
        echo
        continue
    fi
    before=$fail
    newer "$ss" "$MAX" && bad "$name: subsystem version $ss is newer than $MAX"
    newer "$os" "$MAX" && bad "$name: OS version $os is newer than $MAX"
    printf '%s\n' "$info" | grep -q '^delay$' &&
        bad "$name: has delay-loaded imports, which this check does not read"
    for dll in $(printf '%s\n' "$imports" | awk '{ print tolower($1) }' | sed 's/\.dll$//' | sort -u); do
        # shellcheck disable=SC2086,SC2116 # the list's words, on one line
        case " $(echo $XP_DLLS) $SHIPPED " in
            *" $dll "*) ;;
            *) bad "$name: imports from $dll.dll, which is neither part of Windows XP nor shipped beside it";;
        esac
    done
    refused=$(printf '%s\n' "$imports" | awk -v k="^($KERNEL32_NEW)\$" -v a="^($ADVAPI32_NEW)\$" \
        -v u="^($USER32_NEW)\$" -v s="^($SHELL32_NEW)\$" -v g="^($GDI32_NEW)\$" -v o="^($OLE32_NEW)\$" \
        -v m="^($MSVCRT_NEW)\$" '
        { d = tolower($1); f = $2; r = "" }
        d == "kernel32.dll" && f ~ k { r = 1 }
        d == "advapi32.dll" && f ~ a { r = 1 }
        d == "user32.dll" && f ~ u { r = 1 }
        d == "shell32.dll" && f ~ s { r = 1 }
        d == "gdi32.dll" && f ~ g { r = 1 }
        d == "ole32.dll" && f ~ o { r = 1 }
        d == "msvcrt.dll" && f ~ m { r = 1 }
        r { print $1 "!" f }')
    for r in $refused; do
        bad "$name: imports ${r#*!} from ${r%!*}, which Windows XP lacks"
    done
    [ "$fail" = "$before" ] &&
        echo "pe-imports: $name: $n imports from $(printf '%s\n' "$imports" | awk '{ print $1 }' | sort -fu | grep -c .) DLLs, subsystem $ss, OS $os: nothing newer than Windows $MAX ($(winname "$MAX"))"
done
[ "$fail" = 0 ]
