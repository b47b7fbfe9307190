//! A PKCS#11 module loaded at run time: its function list
//! (`C_GetFunctionList`), the slot of the token cryptobench uses, the user's
//! login, and the mechanisms the token lists. PKCS#11 v2.40 base
//! specification: <https://docs.oasis-open.org/pkcs11/pkcs11-base/v2.40/os/pkcs11-base-v2.40-os.html>.

use std::ffi::c_void;
use std::ptr;

use cryptoki_sys::*;

use crate::error::{BackendError, OpenError};

/// Where the module, the token and the PIN come from (README, "PKCS#11 tokens").
pub const TOKEN_ENV: &str = "CRYPTOBENCH_PKCS11_TOKEN";
pub const SLOT_ENV: &str = "CRYPTOBENCH_PKCS11_SLOT";
pub const PIN_ENV: &str = "CRYPTOBENCH_PKCS11_PIN";

/// A module's function table, kept with the loaded file.
pub struct Module {
    pub f: &'static CK_FUNCTION_LIST,
    pub slot: CK_SLOT_ID,
    pub info: CK_INFO,
    pub token: CK_TOKEN_INFO,
    pub mechanisms: Vec<CK_MECHANISM_TYPE>,
    /// A session held open for the module's life: the login of a token
    /// lasts while one of the application's sessions is open.
    login_session: CK_SESSION_HANDLE,
}

/// A PKCS#11 return value as an error of `call`.
pub fn rv_error(call: &'static str, rv: CK_RV) -> BackendError {
    BackendError::Call {
        call,
        detail: format!("CKR 0x{rv:x}{}", rv_name(rv).map(|n| format!(" ({n})")).unwrap_or_default()),
    }
}

/// The names of the return values a run meets most (PKCS#11 v2.40, section 5.1).
fn rv_name(rv: CK_RV) -> Option<&'static str> {
    Some(match rv {
        CKR_ARGUMENTS_BAD => "CKR_ARGUMENTS_BAD",
        CKR_FUNCTION_NOT_SUPPORTED => "CKR_FUNCTION_NOT_SUPPORTED",
        CKR_MECHANISM_INVALID => "CKR_MECHANISM_INVALID",
        CKR_MECHANISM_PARAM_INVALID => "CKR_MECHANISM_PARAM_INVALID",
        CKR_KEY_SIZE_RANGE => "CKR_KEY_SIZE_RANGE",
        CKR_DATA_LEN_RANGE => "CKR_DATA_LEN_RANGE",
        CKR_ENCRYPTED_DATA_INVALID => "CKR_ENCRYPTED_DATA_INVALID",
        CKR_BUFFER_TOO_SMALL => "CKR_BUFFER_TOO_SMALL",
        CKR_PIN_INCORRECT => "CKR_PIN_INCORRECT",
        CKR_USER_NOT_LOGGED_IN => "CKR_USER_NOT_LOGGED_IN",
        CKR_TEMPLATE_INCONSISTENT => "CKR_TEMPLATE_INCONSISTENT",
        CKR_ATTRIBUTE_VALUE_INVALID => "CKR_ATTRIBUTE_VALUE_INVALID",
        CKR_SIGNATURE_INVALID => "CKR_SIGNATURE_INVALID",
        CKR_OPERATION_ACTIVE => "CKR_OPERATION_ACTIVE",
        _ => return None,
    })
}

/// `rv` as a result of `call`.
pub fn ck(call: &'static str, rv: CK_RV) -> Result<(), BackendError> {
    if rv == CKR_OK {
        Ok(())
    } else {
        Err(rv_error(call, rv))
    }
}

/// A function of the table, or the error that the module lacks it.
macro_rules! func {
    ($module:expr, $name:ident) => {
        $module.f.$name.ok_or_else(|| crate::error::BackendError::Call {
            call: stringify!($name),
            detail: "the module's function list has no entry for it".into(),
        })?
    };
}
pub(crate) use func;

/// A fixed-width, blank-padded PKCS#11 text field, trimmed.
pub fn field(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim_end_matches([' ', '\0']).to_string()
}

fn open_error(path: &str, what: impl std::fmt::Display) -> OpenError {
    OpenError::Load {
        path: path.to_string(),
        reason: what.to_string(),
    }
}

impl Module {
    /// Loads the module at `path`, initialises it, finds the token (by
    /// label, `CRYPTOBENCH_PKCS11_TOKEN`, or slot id, `CRYPTOBENCH_PKCS11_SLOT`;
    /// else the first slot with an initialised token) and logs in with
    /// `CRYPTOBENCH_PKCS11_PIN` where it is set.
    pub fn open(library: libloading::Library, path: &str) -> Result<Module, OpenError> {
        // SAFETY: C_GetFunctionList is every PKCS#11 module's entry point, of this type.
        let get =
            unsafe { library.get::<unsafe extern "C" fn(*mut CK_FUNCTION_LIST_PTR) -> CK_RV>(b"C_GetFunctionList\0") }.map_err(|_| {
                OpenError::NotThatLibrary {
                    path: path.to_string(),
                    expected: "PKCS#11 module",
                    symbol: "C_GetFunctionList",
                }
            })?;
        let mut list: CK_FUNCTION_LIST_PTR = ptr::null_mut();
        // SAFETY: writes the module's static table's address.
        let rv = unsafe { get(&mut list) };
        if rv != CKR_OK || list.is_null() {
            return Err(open_error(path, format_args!("C_GetFunctionList returned 0x{rv:x}")));
        }
        // SAFETY: the table is static in the module, which is never unloaded (below).
        let f: &'static CK_FUNCTION_LIST = unsafe { &*list };
        // The module stays loaded and initialised for the process's life: another
        // library of the same process may use it (C_Initialize is once per process),
        // so neither C_Finalize nor unloading may follow this one's end.
        std::mem::forget(library);
        let fail = |call: &str, rv: CK_RV| {
            open_error(
                path,
                format_args!(
                    "{call} returned CKR 0x{rv:x}{}",
                    rv_name(rv).map(|n| format!(" ({n})")).unwrap_or_default()
                ),
            )
        };
        let init = f
            .C_Initialize
            .ok_or_else(|| open_error(path, "the function list has no C_Initialize"))?;
        // Several libraries of one process (the tests' threads) may use the module at
        // once: it is asked to lock with the operating system's primitives.
        let mut args = CK_C_INITIALIZE_ARGS {
            CreateMutex: None,
            DestroyMutex: None,
            LockMutex: None,
            UnlockMutex: None,
            flags: CKF_OS_LOCKING_OK,
            pReserved: ptr::null_mut(),
        };
        // SAFETY: the arguments live through the call.
        let rv = unsafe { init(&mut args as *mut _ as *mut c_void) };
        if rv != CKR_OK && rv != CKR_CRYPTOKI_ALREADY_INITIALIZED {
            return Err(fail("C_Initialize", rv));
        }
        // SAFETY: CK_INFO is plain data, filled by the call.
        let mut info: CK_INFO = unsafe { std::mem::zeroed() };
        if let Some(get_info) = f.C_GetInfo {
            // SAFETY: as above.
            unsafe { get_info(&mut info) };
        }
        let slot = Self::find_slot(f, path)?;
        // SAFETY: plain data, filled by the call.
        let mut token: CK_TOKEN_INFO = unsafe { std::mem::zeroed() };
        let rv = unsafe { f.C_GetTokenInfo.ok_or_else(|| open_error(path, "no C_GetTokenInfo"))?(slot, &mut token) };
        if rv != CKR_OK {
            return Err(fail("C_GetTokenInfo", rv));
        }
        let mechanisms = Self::mechanism_list(f, slot).map_err(|rv| fail("C_GetMechanismList", rv))?;
        let mut login_session: CK_SESSION_HANDLE = 0;
        let open = f.C_OpenSession.ok_or_else(|| open_error(path, "no C_OpenSession"))?;
        // SAFETY: no callback; the handle is written.
        let rv = unsafe { open(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, ptr::null_mut(), None, &mut login_session) };
        if rv != CKR_OK {
            return Err(fail("C_OpenSession", rv));
        }
        if let Ok(pin) = std::env::var(PIN_ENV) {
            let login = f.C_Login.ok_or_else(|| open_error(path, "no C_Login"))?;
            // SAFETY: the PIN's bytes and length.
            let rv = unsafe { login(login_session, CKU_USER, pin.as_ptr() as *mut u8, pin.len() as CK_ULONG) };
            if rv != CKR_OK && rv != CKR_USER_ALREADY_LOGGED_IN {
                return Err(fail("C_Login with CRYPTOBENCH_PKCS11_PIN", rv));
            }
        }
        Ok(Module {
            f,
            slot,
            info,
            token,
            mechanisms,
            login_session,
        })
    }

    /// The slot named in the environment, else the first with a token that is initialised.
    fn find_slot(f: &CK_FUNCTION_LIST, path: &str) -> Result<CK_SLOT_ID, OpenError> {
        let list = f.C_GetSlotList.ok_or_else(|| open_error(path, "no C_GetSlotList"))?;
        let mut n: CK_ULONG = 0;
        // SAFETY: the count first, then the list into a buffer of that count.
        let rv = unsafe { list(CK_TRUE, ptr::null_mut(), &mut n) };
        let mut slots = vec![0 as CK_SLOT_ID; n as usize];
        let rv = if rv == CKR_OK {
            unsafe { list(CK_TRUE, slots.as_mut_ptr(), &mut n) }
        } else {
            rv
        };
        if rv != CKR_OK {
            return Err(open_error(path, format_args!("C_GetSlotList returned 0x{rv:x}")));
        }
        slots.truncate(n as usize);
        if let Ok(slot) = std::env::var(SLOT_ENV) {
            let id: CK_SLOT_ID = slot
                .parse()
                .map_err(|_| open_error(path, format_args!("{SLOT_ENV}={slot} is not a slot id (a number)")))?;
            return if slots.contains(&id) {
                Ok(id)
            } else {
                Err(open_error(
                    path,
                    format_args!("{SLOT_ENV}={slot}: no token in that slot; slots with a token: {slots:?}"),
                ))
            };
        }
        let wanted = std::env::var(TOKEN_ENV).ok();
        let mut labels = Vec::new();
        for &slot in &slots {
            // SAFETY: plain data, filled by the call.
            let mut t: CK_TOKEN_INFO = unsafe { std::mem::zeroed() };
            if unsafe { f.C_GetTokenInfo.map(|g| g(slot, &mut t)) } != Some(CKR_OK) {
                continue;
            }
            let label = field(&t.label);
            let initialised = t.flags & CKF_TOKEN_INITIALIZED != 0;
            match &wanted {
                Some(w) if *w == label => return Ok(slot),
                None if initialised => return Ok(slot),
                _ => labels.push(label),
            }
        }
        Err(open_error(
            path,
            match wanted {
                Some(w) => format!("no token labelled '{w}' ({TOKEN_ENV}); tokens: {labels:?}"),
                None => "no initialised token (initialise one, e.g. `eval \"$(scripts/softhsm-token)\"` for SoftHSM2, and set CRYPTOBENCH_PKCS11_PIN)".into(),
            },
        ))
    }

    fn mechanism_list(f: &CK_FUNCTION_LIST, slot: CK_SLOT_ID) -> Result<Vec<CK_MECHANISM_TYPE>, CK_RV> {
        let list = f.C_GetMechanismList.ok_or(CKR_FUNCTION_NOT_SUPPORTED)?;
        let mut n: CK_ULONG = 0;
        // SAFETY: the count first, then the list into a buffer of that count.
        let rv = unsafe { list(slot, ptr::null_mut(), &mut n) };
        if rv != CKR_OK {
            return Err(rv);
        }
        let mut out = vec![0 as CK_MECHANISM_TYPE; n as usize];
        let rv = unsafe { list(slot, out.as_mut_ptr(), &mut n) };
        if rv != CKR_OK {
            return Err(rv);
        }
        out.truncate(n as usize);
        Ok(out)
    }

    /// Whether the token lists `mechanism`.
    pub fn has(&self, mechanism: CK_MECHANISM_TYPE) -> bool {
        self.mechanisms.contains(&mechanism)
    }

    /// A new read-write session on the token.
    pub fn session(&self) -> Result<CK_SESSION_HANDLE, BackendError> {
        let open = func!(self, C_OpenSession);
        let mut handle: CK_SESSION_HANDLE = 0;
        // SAFETY: no callback; the handle is written.
        ck("C_OpenSession", unsafe {
            open(self.slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, ptr::null_mut(), None, &mut handle)
        })?;
        Ok(handle)
    }

    /// Closes `session` (and so destroys its session objects).
    pub fn close(&self, session: CK_SESSION_HANDLE) {
        if let Some(close) = self.f.C_CloseSession {
            // SAFETY: a handle this module gave.
            unsafe { close(session) };
        }
    }

    /// A session object made from `template` in `session`.
    pub fn create(&self, session: CK_SESSION_HANDLE, template: &mut [CK_ATTRIBUTE]) -> Result<CK_OBJECT_HANDLE, BackendError> {
        let create = func!(self, C_CreateObject);
        let mut object: CK_OBJECT_HANDLE = 0;
        // SAFETY: the template's attributes point at live values for the call.
        ck("C_CreateObject", unsafe {
            create(session, template.as_mut_ptr(), template.len() as CK_ULONG, &mut object)
        })?;
        Ok(object)
    }

    /// Destroys a session object.
    pub fn destroy(&self, session: CK_SESSION_HANDLE, object: CK_OBJECT_HANDLE) -> Result<(), BackendError> {
        let destroy = func!(self, C_DestroyObject);
        // SAFETY: handles this module gave.
        ck("C_DestroyObject", unsafe { destroy(session, object) })
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        self.close(self.login_session);
    }
}

/// An attribute of `kind` pointing at `value` (which must outlive its use).
pub fn attr<T>(kind: CK_ATTRIBUTE_TYPE, value: &T) -> CK_ATTRIBUTE {
    CK_ATTRIBUTE {
        type_: kind,
        pValue: value as *const T as *mut c_void,
        ulValueLen: std::mem::size_of::<T>() as CK_ULONG,
    }
}

/// An attribute of `kind` pointing at the bytes `value`.
pub fn attr_bytes(kind: CK_ATTRIBUTE_TYPE, value: &[u8]) -> CK_ATTRIBUTE {
    CK_ATTRIBUTE {
        type_: kind,
        pValue: value.as_ptr() as *mut c_void,
        ulValueLen: value.len() as CK_ULONG,
    }
}
