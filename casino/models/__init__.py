from casino.models.floor import (
    Casino,
    Dealer,
    GameKind,
    Pit,
    StaffProfile,
    StaffRole,
    StaffToken,
    Table,
    TableLimit,
    Terminal,
)
from casino.models.inventories import SHIFT_NAMES, InventoryKind, TableInventory
from casino.models.ledger import (
    CAGE_MOVEMENT_KINDS,
    HOUSE_ACCOUNT_KINDS,
    OWNED_ACCOUNT_KINDS,
    Account,
    AccountKind,
    LedgerEntry,
    LedgerTransaction,
    MovementKind,
)
from casino.models.rule_changes import OPEN_RULE_CHANGE_STATES, RuleChangeStatus, TableRuleChange
from casino.models.shoes import Shoe, ShoeMode
from casino.models.staff_sign_in import StaffSignInLock, StaffSignInThrottle

__all__ = [
    "CAGE_MOVEMENT_KINDS",
    "HOUSE_ACCOUNT_KINDS",
    "OPEN_RULE_CHANGE_STATES",
    "OWNED_ACCOUNT_KINDS",
    "SHIFT_NAMES",
    "Account",
    "AccountKind",
    "Casino",
    "Dealer",
    "GameKind",
    "InventoryKind",
    "LedgerEntry",
    "LedgerTransaction",
    "MovementKind",
    "Pit",
    "RuleChangeStatus",
    "Shoe",
    "ShoeMode",
    "StaffProfile",
    "StaffRole",
    "StaffSignInLock",
    "StaffSignInThrottle",
    "StaffToken",
    "Table",
    "TableInventory",
    "TableLimit",
    "TableRuleChange",
    "Terminal",
]
