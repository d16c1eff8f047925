// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The ERC-20 all test tokens share; each token adds its one trait in _transfer or functions.
abstract contract BaseToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function _init(string memory name_, string memory symbol_, uint256 supply, address to) internal {
        name = name_;
        symbol = symbol_;
        _mint(to, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _mint(address to, uint256 value) internal {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _transfer(address from, address to, uint256 value) internal virtual {
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// No owner, no fees, no switches.
contract CleanToken is BaseToken {
    constructor() {
        _init("Clean", "CLEAN", 1_000_000e18, msg.sender);
    }
}

/// Buys work; a transfer to the pair (a sell) reverts for anyone but the deployer.
contract HoneypotToken is BaseToken {
    address public immutable deployer;
    address public pair;

    constructor() {
        deployer = msg.sender;
        _init("Honey", "HONEY", 1_000_000e18, msg.sender);
    }

    function setPair(address pair_) external {
        require(msg.sender == deployer, "deployer");
        pair = pair_;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (pair != address(0) && to == pair) require(from == deployer, "sells disabled");
        _move(from, to, value);
    }
}

/// 3% of a buy (a transfer from the pair) and 7% of a sell (a transfer to the pair) go to the owner.
contract FeeToken is BaseToken {
    address public immutable feeReceiver;
    address public pair;

    constructor() {
        feeReceiver = msg.sender;
        _init("Fee", "FEE", 1_000_000e18, msg.sender);
    }

    function setPair(address pair_) external {
        require(msg.sender == feeReceiver, "deployer");
        pair = pair_;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        uint256 fee = 0;
        if (pair != address(0) && from != feeReceiver && to != feeReceiver) {
            if (from == pair) fee = (value * 3) / 100;
            else if (to == pair) fee = (value * 7) / 100;
        }
        if (fee > 0) _move(from, feeReceiver, fee);
        _move(from, to, value - fee);
    }
}

/// An owner who can mint, pause, blacklist, set a tax and limit transactions.
contract OwnerPowersToken is BaseToken {
    address public owner;
    bool public paused;
    mapping(address => bool) public isBlacklisted;
    uint256 public taxFee;
    uint256 public maxTxAmount = type(uint256).max;

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    constructor() {
        owner = msg.sender;
        _init("Power", "PWR", 1_000_000e18, msg.sender);
    }

    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }

    function pause() external onlyOwner {
        paused = true;
    }

    function unpause() external onlyOwner {
        paused = false;
    }

    function blacklist(address account) external onlyOwner {
        isBlacklisted[account] = true;
    }

    function unblacklist(address account) external onlyOwner {
        isBlacklisted[account] = false;
    }

    function setTaxFee(uint256 fee) external onlyOwner {
        taxFee = fee;
    }

    function setMaxTxAmount(uint256 amount) external onlyOwner {
        maxTxAmount = amount;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        owner = newOwner;
    }

    function renounceOwnership() external onlyOwner {
        owner = address(0);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!paused, "paused");
        require(!isBlacklisted[from] && !isBlacklisted[to], "blacklisted");
        require(value <= maxTxAmount || from == owner, "max tx");
        _move(from, to, value);
    }
}

/// A plain token to be used behind a proxy: initialised once through it.
contract UpgradeableToken is BaseToken {
    bool private initialized;

    function initialize(string memory name_, string memory symbol_, uint256 supply, address to) external {
        require(!initialized, "initialized");
        initialized = true;
        _init(name_, symbol_, supply, to);
    }
}

/// An EIP-1967 proxy: implementation and admin in the standard slots, upgradeTo for the admin.
contract TestERC1967Proxy {
    bytes32 private constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    bytes32 private constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    constructor(address implementation, bytes memory init) {
        assembly {
            sstore(IMPLEMENTATION_SLOT, implementation)
            sstore(ADMIN_SLOT, caller())
        }
        if (init.length > 0) {
            (bool ok, ) = implementation.delegatecall(init);
            require(ok, "init");
        }
    }

    function upgradeTo(address implementation) external {
        address admin;
        assembly {
            admin := sload(ADMIN_SLOT)
        }
        require(msg.sender == admin, "admin");
        assembly {
            sstore(IMPLEMENTATION_SLOT, implementation)
        }
    }

    fallback() external payable {
        assembly {
            let implementation := sload(IMPLEMENTATION_SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 {
                revert(0, returndatasize())
            }
            default {
                return(0, returndatasize())
            }
        }
    }

    receive() external payable {}
}

/// Runs arbitrary code in its own context and can destroy itself: what an audit must flag.
contract Dangerous {
    address public owner = msg.sender;

    function run(address target, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "owner");
        (bool ok, bytes memory result) = target.delegatecall(data);
        require(ok, "failed");
        return result;
    }

    function kill() external {
        require(msg.sender == owner, "owner");
        selfdestruct(payable(owner));
    }
}
