package io.github.gofluss.jdbcpeer;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Reads the Flight SQL server through the Flight SQL JDBC driver, the way a
 * JDBC tool does: DatabaseMetaData.getTables and getColumns of one
 * database, then a query through a ResultSet, a scan of the log table
 * "logs", then a prepared query with a typed parameter (setLong, which
 * needs the server's parameter schema). Prints one line per finding
 * ("tables ...", "columns ...", "row ...", "logs ...", "prepared ...",
 * "refused ..."); the Go test
 * compares them. Any unexpected failure exits non-zero with its trace.
 *
 * <p>Usage: Check HOST:PORT USER PASSWORD DATABASE TABLE
 */
public final class Check {
  private Check() {}

  private static Connection connect(String addr, String user, String password) throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", user);
    props.setProperty("password", password);
    return DriverManager.getConnection("jdbc:arrow-flight-sql://" + addr + "/?useEncryption=false", props);
  }

  public static void main(String[] args) throws Exception {
    String addr = args[0], user = args[1], password = args[2], db = args[3], table = args[4];
    try (Connection conn = connect(addr, user, password)) {
      DatabaseMetaData md = conn.getMetaData();
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, db, "%", null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
        }
      }
      System.out.println("tables " + String.join(",", tables));
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, db, table, "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("DATA_TYPE"));
        }
      }
      System.out.println("columns " + String.join(",", columns));
      try (Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("SELECT id, name, price FROM " + db + "." + table + " ORDER BY id")) {
        while (rs.next()) {
          System.out.println("row " + rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getBigDecimal(3));
        }
      }
      // A plain scan of a log table: its log batches go out as Fluss
      // stored them when the client can read them (uncompressed ones).
      List<String> lines = new ArrayList<>();
      try (Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("SELECT * FROM " + db + ".logs")) {
        while (rs.next()) {
          lines.add(rs.getString(1));
        }
      }
      lines.sort(null);
      System.out.println("logs " + String.join(",", lines));
      try (PreparedStatement ps = conn.prepareStatement("SELECT name FROM " + db + "." + table + " WHERE id = ?")) {
        ps.setLong(1, 2L);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            System.out.println("prepared " + rs.getString(1));
          }
        }
      }
    }
    try (Connection conn = connect(addr, user, password + "-wrong")) {
      conn.getMetaData().getTables(null, db, "%", null).close();
      System.out.println("accepted a wrong password");
    } catch (SQLException e) {
      System.out.println("refused " + (e.getMessage().contains(password + "-wrong") ? "SHOWING THE PASSWORD" : "without the password"));
    }
  }
}
